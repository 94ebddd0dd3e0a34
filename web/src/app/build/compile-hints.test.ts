import { COMPILE_HINT, chunksToHint, withCompileHint } from './compile-hints';

const chunk = (fileName: string, imports: string[] = [], isEntry = false, name = fileName) => ({
  fileName,
  name,
  isEntry,
  imports,
});

describe('compile hints', () => {
  it('hints what loads after the page, not the entries, their static imports or the unhinted', () => {
    const chunks = [
      chunk('index.js', ['react.js', 'shared.js'], true),
      chunk('early.js', [], true),
      chunk('react.js'),
      chunk('shared.js', ['react.js']),
      chunk('app-start.js', ['router.js', 'react.js']),
      chunk('router.js', ['react.js']),
      chunk('workplace.js', ['antd.js']),
      chunk('antd.js', ['shared.js']),
      chunk('echarts-abc.js', [], false, 'echarts-vendor'),
    ];
    const hinted = chunksToHint(chunks, ['echarts-vendor']).map((hint) => hint.fileName);
    expect(hinted).toEqual(['app-start.js', 'router.js', 'workplace.js', 'antd.js']);
  });

  it('puts the hint on the first line and moves the source map down one line', () => {
    const built = { code: 'export const a = 1;', map: { mappings: 'AAAA' } };
    withCompileHint(built);
    expect(built.code.split('\n')).toEqual([COMPILE_HINT, 'export const a = 1;']);
    expect(built.map.mappings).toBe(';AAAA');
  });
});
