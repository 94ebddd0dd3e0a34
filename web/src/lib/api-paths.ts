/**
 * Request and answer types by path, from the server's OpenAPI document (the generated
 * web/src/api/schema.d.ts, `make api-types`). The client's `post` and `get` (lib/request)
 * take them, so a call whose path, body or query no longer matches the server fails the
 * type check.
 */
import type { components, paths } from '@/api/schema';

/** A schema of the document by name. */
export type ApiSchema<Name extends keyof components['schemas']> = components['schemas'][Name];

type Method = 'get' | 'post';
type Operation<P extends keyof paths, M extends Method> = paths[P][M];

/** The paths the document declares a POST (a GET) for. */
export type PostPath = { [P in keyof paths]: paths[P]['post'] extends object ? P : never }[keyof paths];
export type GetPath = { [P in keyof paths]: paths[P]['get'] extends object ? P : never }[keyof paths];

type JsonOf<Content> = Content extends { 'application/json': infer Body } ? Body : never;

/**
 * The JSON body the document declares for a POST path: undefined when it takes none, and
 * `Body | undefined` when the body may be left out.
 */
export type PostBody<P extends PostPath> =
  Operation<P, 'post'> extends { requestBody?: infer Request }
    ? [Exclude<Request, undefined>] extends [never]
      ? undefined
      : Operation<P, 'post'> extends { requestBody: { content: infer Content } }
        ? JsonOf<Content>
        : JsonOf<Exclude<Request, undefined> extends { content: infer Content } ? Content : never> | undefined
    : undefined;

/** The query parameters the document declares for a GET path. */
export type GetQuery<P extends GetPath> =
  Operation<P, 'get'> extends { parameters: { query?: infer Query } }
    ? [Exclude<Query, undefined>] extends [never]
      ? undefined
      : Query
    : undefined;

/**
 * What a call resolves with: the success envelope's `data`, as the document declares it for
 * the 200 answer (never for a path whose answer is not JSON, such as a file).
 */
type DeclaredData<Op> = Op extends {
  responses: { 200: { content: { 'application/json': { data: infer Data } } } };
}
  ? Data
  : never;

export type PostAnswer<P extends PostPath> = DeclaredData<Operation<P, 'post'>>;
export type GetAnswer<P extends GetPath> = DeclaredData<Operation<P, 'get'>>;

/** The paths whose answer is a file (or an image): the blob calls take only these. */
export type FilePostPath = { [P in PostPath]: [PostAnswer<P>] extends [never] ? P : never }[PostPath];
export type FileGetPath = { [P in GetPath]: [GetAnswer<P>] extends [never] ? P : never }[GetPath];

/** The paths whose answer is a JSON envelope (`post` and `get` call only these). */
export type AnsweredPostPath = { [P in PostPath]: [PostAnswer<P>] extends [never] ? never : P }[PostPath];
export type AnsweredGetPath = { [P in GetPath]: [GetAnswer<P>] extends [never] ? never : P }[GetPath];
