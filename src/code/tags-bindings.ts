// Tags patterns for what resolves a call: names a scope binds with a type (`@bind.name`, with
// `@bind.type` its declared type, `@bind.new` what constructed it or `@bind.value` the value it is
// assigned, whose type is its own; `@bind.self` marks `self.x = …`;
// untyped locals and parameters come from the `@local.*` declarations of tags.ts) and the types a
// class builds on (`@base` of the class named `@base.of`: extends, implements, Python bases, Go
// embedded fields). extract-bindings.ts turns the captures into each call's receiver type.
import type { LanguageId } from './languages.ts';

const TS_BINDINGS = [
  '(required_parameter pattern: (identifier) @bind.name type: (type_annotation (_) @bind.type))',
  '(optional_parameter pattern: (identifier) @bind.name type: (type_annotation (_) @bind.type))',
  '(variable_declarator name: (identifier) @bind.name type: (type_annotation (_) @bind.type))',
  '(public_field_definition name: (_) @bind.name type: (type_annotation (_) @bind.type))',
  '(public_field_definition name: (_) @bind.name value: (_) @bind.value)',
];

const JS_ONLY = [
  '(field_definition property: (property_identifier) @bind.name value: (_) @bind.value)',
];

const JS_BINDINGS = [
  '(variable_declarator name: (identifier) @bind.name value: (_) @bind.value)',
];

const TS_BASES = [
  '(class_declaration name: (_) @base.of (class_heritage (extends_clause value: (_) @base)))',
  '(class_declaration name: (_) @base.of (class_heritage (implements_clause (_) @base)))',
  '(abstract_class_declaration name: (_) @base.of (class_heritage (extends_clause value: (_) @base)))',
  '(abstract_class_declaration name: (_) @base.of (class_heritage (implements_clause (_) @base)))',
  '(interface_declaration name: (_) @base.of (extends_type_clause (_) @base))',
];

export const BINDING_QUERIES: Partial<Record<LanguageId, readonly string[]>> = {
  typescript: [...TS_BINDINGS, ...JS_BINDINGS, ...TS_BASES],
  tsx: [...TS_BINDINGS, ...JS_BINDINGS, ...TS_BASES],
  javascript: [...JS_BINDINGS, ...JS_ONLY, '(class_declaration name: (_) @base.of (class_heritage (_) @base))'],
  python: [
    '(typed_parameter (identifier) @bind.name type: (type) @bind.type)',
    '(typed_default_parameter name: (identifier) @bind.name type: (type) @bind.type)',
    '(assignment left: (identifier) @bind.name type: (type) @bind.type)',
    '(assignment left: (identifier) @bind.name right: (_) @bind.value)',
    '(assignment left: (attribute object: (identifier) @bind.self attribute: (identifier) @bind.name) type: (type) @bind.type)',
    '(assignment left: (attribute object: (identifier) @bind.self attribute: (identifier) @bind.name) right: (_) @bind.value)',
    '(class_definition name: (identifier) @base.of superclasses: (argument_list [(identifier) (attribute)] @base))',
  ],
  go: [
    '(parameter_declaration name: (identifier) @bind.name type: (_) @bind.type)',
    '(var_spec name: (identifier) @bind.name type: (_) @bind.type)',
    '(short_var_declaration left: (expression_list . (identifier) @bind.name) right: (expression_list . (_) @bind.value))',
    '(short_var_declaration left: (expression_list (identifier) (identifier) @bind.name) right: (expression_list . (call_expression) @bind.value .))',
    '(var_spec name: (identifier) @bind.name !type value: (expression_list . (_) @bind.value))',
    '(range_clause left: (expression_list (identifier) (identifier) @bind.name) right: (_) @bind.value)',
    '(field_declaration name: (field_identifier) @bind.name type: (_) @bind.type)',
    '(type_spec name: (type_identifier) @base.of type: (struct_type (field_declaration_list (field_declaration !name type: (_) @base))))',
    '(type_spec name: (type_identifier) @base.of type: (interface_type (type_elem (_) @base)))',
  ],
  java: [
    '(formal_parameter type: (_) @bind.type name: (identifier) @bind.name)',
    '(spread_parameter (_) @bind.type (variable_declarator name: (identifier) @bind.name))',
    '(local_variable_declaration type: (_) @bind.type declarator: (variable_declarator name: (identifier) @bind.name))',
    '(local_variable_declaration declarator: (variable_declarator name: (identifier) @bind.name value: (_) @bind.value))',
    '(field_declaration type: (_) @bind.type declarator: (variable_declarator name: (identifier) @bind.name))',
    '(enhanced_for_statement type: (_) @bind.type name: (identifier) @bind.name)',
    '(instanceof_expression right: (_) @bind.type name: (identifier) @bind.name)',
    '(class_declaration name: (identifier) @base.of superclass: (superclass (_) @base))',
    '(class_declaration name: (identifier) @base.of interfaces: (super_interfaces (type_list (_) @base)))',
    '(enum_declaration name: (identifier) @base.of interfaces: (super_interfaces (type_list (_) @base)))',
    '(record_declaration name: (identifier) @base.of interfaces: (super_interfaces (type_list (_) @base)))',
    '(interface_declaration name: (identifier) @base.of (extends_interfaces (type_list (_) @base)))',
  ],
};
