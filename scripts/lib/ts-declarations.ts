// Every declaration of a TypeScript tree by the compiler's own syntax tree: the held-out names of
// bench-declarations.ts and bench-first-call.ts (an oracle that is not ctxgate's parser).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface Declaration {
  file: string;
  name: string;
  line: number;
  /** A definition proper (top level, a member of a named type) or a local declaration. */
  local: boolean;
  what: string;
}

export function filesUnder(dir: string, ext: RegExp, root = dir): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p, ext, root));
    else if (ext.test(name)) out.push(path.relative(root, p));
  }
  return out;
}

/** Every declaration of the TypeScript files under `root`, from the compiler's syntax tree. */
export function typescriptDeclarations(root: string): Declaration[] {
  const out: Declaration[] = [];
  for (const file of filesUnder(root, /\.ts$/)) {
    const sf = ts.createSourceFile(file, readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const add = (name: ts.Node | undefined, local: boolean, what: string) => {
      if (name && ts.isIdentifier(name)) out.push({ file, name: name.text, line: sf.getLineAndCharacterOfPosition(name.getStart(sf)).line + 1, local, what });
    };
    const bindings = (name: ts.BindingName, what: string) => {
      if (ts.isIdentifier(name)) add(name, true, what);
      else for (const e of name.elements) if (!ts.isOmittedExpression(e)) bindings(e.name, what);
    };
    const topLevel = (n: ts.Node) => ts.isSourceFile(n.parent) || (ts.isModuleBlock(n.parent) && true);
    const visit = (n: ts.Node) => {
      if ((ts.isFunctionDeclaration(n) || ts.isClassDeclaration(n) || ts.isInterfaceDeclaration(n) || ts.isTypeAliasDeclaration(n) || ts.isEnumDeclaration(n) || ts.isModuleDeclaration(n)) && n.name && topLevel(n)) add(n.name, false, 'top-level');
      else if (ts.isVariableDeclaration(n) && ts.isVariableStatement(n.parent.parent) && topLevel(n.parent.parent)) {
        if (ts.isIdentifier(n.name)) add(n.name, false, 'top-level');
        else bindings(n.name, 'local');
        // Its type (overload signatures) and initializer hold declarations of their own.
        if (n.type) visit(n.type);
        if (n.initializer) visit(n.initializer);
        return;
      } else if ((ts.isMethodDeclaration(n) || ts.isPropertyDeclaration(n) || ts.isGetAccessorDeclaration(n) || ts.isSetAccessorDeclaration(n)) && ts.isClassLike(n.parent)) add(n.name, false, 'member');
      else if ((ts.isPropertySignature(n) || ts.isMethodSignature(n)) && (ts.isInterfaceDeclaration(n.parent) || (ts.isTypeLiteralNode(n.parent) && ts.isTypeAliasDeclaration(n.parent.parent)))) add(n.name, false, 'member');
      else if (ts.isPropertySignature(n)) add(n.name, true, 'field');
      else if (ts.isVariableDeclaration(n)) bindings(n.name, 'local');
      else if (ts.isParameter(n) && !ts.isThisTypeNode(n.type ?? n)) bindings(n.name, 'parameter');
      else if (ts.isEnumMember(n)) add(n.name, true, 'member');
      else if (ts.isPropertyAssignment(n) && ts.isObjectLiteralExpression(n.parent)) add(n.name, true, 'field');
      // A method with a body is a definition, in an object literal too (`{ unsafeSchedule(task) { … } }`).
      else if ((ts.isMethodDeclaration(n) || ts.isGetAccessorDeclaration(n) || ts.isSetAccessorDeclaration(n)) && ts.isObjectLiteralExpression(n.parent)) add(n.name, false, 'member');
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out.filter((d) => d.name !== 'this');
}
