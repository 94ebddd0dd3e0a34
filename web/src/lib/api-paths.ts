/**
 * Request and answer types by path, from the server's OpenAPI document (the generated
 * web/src/api/schema.d.ts, `make api-types`) and, for answers the document names only in
 * words, web/src/api/answers.ts. The client's `post` and `get` (lib/request) take them, so a
 * call whose path, body or query no longer matches the server fails the type check.
 */
import type { GetAnswers, PostAnswers } from '@/api/answers';
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

/** The envelope's `data` of a success as the document declares it (never when it does not). */
type DeclaredData<Op> = Op extends {
  responses: { 200: { content: { 'application/json': { data: infer Data } } } };
}
  ? Data
  : never;

/**
 * What a call resolves with: the success envelope's `data`, as declared in the document, or
 * else as web/src/api/answers.ts names it.
 */
export type PostAnswer<P extends PostPath> = [DeclaredData<Operation<P, 'post'>>] extends [never]
  ? P extends keyof PostAnswers
    ? PostAnswers[P]
    : never
  : DeclaredData<Operation<P, 'post'>>;
export type GetAnswer<P extends GetPath> = [DeclaredData<Operation<P, 'get'>>] extends [never]
  ? P extends keyof GetAnswers
    ? GetAnswers[P]
    : never
  : DeclaredData<Operation<P, 'get'>>;

/** The paths whose answer is known (declared, or named in web/src/api/answers.ts). */
export type AnsweredPostPath = { [P in PostPath]: [PostAnswer<P>] extends [never] ? never : P }[PostPath];
export type AnsweredGetPath = { [P in GetPath]: [GetAnswer<P>] extends [never] ? never : P }[GetPath];
