import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPathSet, resolveImport } from '../../src/code/resolve.ts';
import { readTsPaths } from '../../src/code/tsconfig-paths.ts';
import { fixture, removeDir, runtime } from '../helpers/env.ts';

describe('import resolution', () => {
  const files = createPathSet(
    [
      'src/Effect.ts',
      'src/internal/core.ts',
      'src/util/index.ts',
      'shop/__init__.py',
      'shop/cart.py',
      'shop/pricing.py',
      'pkg/src/app/models.py',
      'store/store.go',
      'crate/src/lib.rs',
      'crate/src/parser.rs',
      'crate/src/parser/number.rs',
      'include/linux/slab.h',
      'mm/slab.c',
      'mm/internal.h',
    ],
    'example.com/shop',
  );
  const cases: [Parameters<typeof resolveImport>[1], string, string, string | undefined][] = [
    ['typescript', 'src/Effect.ts', './internal/core.js', 'src/internal/core.ts'],
    ['typescript', 'src/Effect.ts', './util', 'src/util/index.ts'],
    ['typescript', 'src/Effect.ts', 'react', undefined],
    ['python', 'shop/cart.py', '.pricing', 'shop/pricing.py'],
    ['python', 'shop/cart.py', 'shop', 'shop/__init__.py'],
    ['python', 'x.py', 'app.models', 'pkg/src/app/models.py'],
    ['go', 'main.go', 'example.com/shop/store', 'store/'],
    ['go', 'main.go', 'fmt', undefined],
    ['rust', 'crate/src/lib.rs', 'parser', 'crate/src/parser.rs'],
    ['rust', 'crate/src/parser.rs', 'number', 'crate/src/parser/number.rs'],
    ['rust', 'crate/src/lib.rs', 'crate::parser::Parser', 'crate/src/parser.rs'],
    ['c', 'mm/slab.c', 'internal.h', 'mm/internal.h'],
    ['c', 'mm/slab.c', 'linux/slab.h', 'include/linux/slab.h'],
  ];
  for (const [language, from, source, want] of cases) {
    it(`resolves ${language} ${JSON.stringify(source)} from ${from} to ${want ?? 'nothing in the project'}`, () => {
      assert.equal(resolveImport(files, language, from, source), want);
    });
  }
});

describe('tsconfig paths', () => {
  const files = (tsPaths: ReturnType<typeof readTsPaths>) =>
    createPathSet(['packages/core/src/index.ts', 'src/app/orders.ts', 'src/components/Button.tsx', 'src/lib/util/index.ts', 'types/shared.d.ts'], undefined, tsPaths);

  it('maps bare imports through paths (most specific pattern first) and baseUrl, as tsc does', () => {
    const root = fixture({
      'tsconfig.base.json': '{ "compilerOptions": { "paths": { "@core": ["packages/core/src/index.ts"] } } }',
      // Comments and trailing commas, as tsconfig files have them.
      'tsconfig.json': `{
        // the app's settings
        "extends": "./tsconfig.base.json",
        "compilerOptions": {
          "baseUrl": "src",
          "paths": { "@app/*": ["app/*"], "@app/special/*": ["lib/*"], "#types": ["../types/shared"], },
        },
      }`,
    });
    try {
      const mapping = readTsPaths(runtime.fs, root)!;
      assert.equal(mapping.baseUrl, 'src');
      const set = files(mapping);
      const resolve = (source: string) => resolveImport(set, 'typescript', 'src/app/orders.ts', source);
      assert.equal(resolve('@app/orders'), 'src/app/orders.ts');
      assert.equal(resolve('@app/special/util'), 'src/lib/util/index.ts', 'the longer prefix wins');
      assert.equal(resolve('#types'), 'types/shared.d.ts');
      assert.equal(resolve('components/Button'), 'src/components/Button.tsx', 'baseUrl alone resolves bare imports');
      assert.equal(resolve('react'), undefined, 'packages stay unresolved');
      assert.equal(resolve('@core'), undefined, "the app's own paths replace the base config's");
    } finally {
      removeDir(root);
    }
  });

  it('takes paths from an extended config relative to it, and ignores a project without a mapping', () => {
    const root = fixture({
      'config/tsconfig.base.json': '{ "compilerOptions": { "baseUrl": "..", "paths": { "@core": ["packages/core/src/index.ts"] } } }',
      'tsconfig.json': '{ "extends": "./config/tsconfig.base.json" }',
    });
    const plain = fixture({ 'tsconfig.json': '{ "compilerOptions": { "strict": true } }' });
    try {
      const set = files(readTsPaths(runtime.fs, root));
      assert.equal(resolveImport(set, 'typescript', 'src/app/orders.ts', '@core'), 'packages/core/src/index.ts');
      assert.equal(readTsPaths(runtime.fs, plain), undefined);
    } finally {
      removeDir(root);
      removeDir(plain);
    }
  });
});
