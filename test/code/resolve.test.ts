import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPathSet, resolveImport } from '../../src/code/resolve.ts';

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
