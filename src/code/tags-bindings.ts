// Tags patterns for what resolves a call: names a scope binds (`@bind.name`, with `@bind.type` its
// declared type or `@bind.new` what constructed it; `@bind.self` marks `self.x = …`) and the types a
// class builds on (`@base` of the class named `@base.of`: extends, implements, Python bases, Go
// embedded fields). extract-bindings.ts turns the captures into each call's receiver type.
import type { LanguageId } from './languages.ts';

const TS_BINDINGS = [
  '(required_parameter pattern: (identifier) @bind.name type: (type_annotation (_) @bind.type))',
  '(required_parameter pattern: (identifier) @bind.name)',
  '(optional_parameter pattern: (identifier) @bind.name type: (type_annotation (_) @bind.type))',
  '(optional_parameter pattern: (identifier) @bind.name)',
  '(variable_declarator name: (identifier) @bind.name type: (type_annotation (_) @bind.type))',
  '(variable_declarator name: (identifier) @bind.name value: (new_expression constructor: (_) @bind.new))',
  '(public_field_definition name: (_) @bind.name type: (type_annotation (_) @bind.type))',
  '(public_field_definition name: (_) @bind.name value: (new_expression constructor: (_) @bind.new))',
];

const JS_ONLY = [
  '(formal_parameters (identifier) @bind.name)',
  '(formal_parameters (assignment_pattern left: (identifier) @bind.name))',
  '(field_definition property: (property_identifier) @bind.name value: (new_expression constructor: (_) @bind.new))',
];

const JS_BINDINGS = [
  '(arrow_function parameter: (identifier) @bind.name)',
  '(variable_declarator name: (identifier) @bind.name)',
  '(variable_declarator name: (identifier) @bind.name value: (new_expression constructor: (_) @bind.new))',
  '(object_pattern (shorthand_property_identifier_pattern) @bind.name)',
  '(pair_pattern value: (identifier) @bind.name)',
  '(array_pattern (identifier) @bind.name)',
  '(rest_pattern (identifier) @bind.name)',
  '(catch_clause parameter: (identifier) @bind.name)',
  '(for_in_statement left: (identifier) @bind.name)',
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
    '(parameters (identifier) @bind.name)',
    '(lambda_parameters (identifier) @bind.name)',
    '(typed_parameter (identifier) @bind.name type: (type) @bind.type)',
    '(default_parameter name: (identifier) @bind.name)',
    '(typed_default_parameter name: (identifier) @bind.name type: (type) @bind.type)',
    '(list_splat_pattern (identifier) @bind.name)',
    '(dictionary_splat_pattern (identifier) @bind.name)',
    '(assignment left: (identifier) @bind.name type: (type) @bind.type)',
    '(assignment left: (identifier) @bind.name right: (call function: [(identifier) (attribute attribute: (identifier))] @bind.new))',
    '(assignment left: (identifier) @bind.name)',
    '(assignment left: (pattern_list (identifier) @bind.name))',
    '(assignment left: (tuple_pattern (identifier) @bind.name))',
    '(for_statement left: (identifier) @bind.name)',
    '(for_statement left: (pattern_list (identifier) @bind.name))',
    '(as_pattern alias: (as_pattern_target (identifier) @bind.name))',
    '(assignment left: (attribute object: (identifier) @bind.self attribute: (identifier) @bind.name) type: (type) @bind.type)',
    '(assignment left: (attribute object: (identifier) @bind.self attribute: (identifier) @bind.name) right: (call function: [(identifier) (attribute attribute: (identifier))] @bind.new))',
    '(class_definition name: (identifier) @base.of superclasses: (argument_list [(identifier) (attribute)] @base))',
  ],
  go: [
    '(parameter_declaration name: (identifier) @bind.name type: (_) @bind.type)',
    '(variadic_parameter_declaration name: (identifier) @bind.name)',
    '(var_spec name: (identifier) @bind.name type: (_) @bind.type)',
    '(var_spec name: (identifier) @bind.name)',
    '(short_var_declaration left: (expression_list (identifier) @bind.name))',
    '(short_var_declaration left: (expression_list . (identifier) @bind.name) right: (expression_list . [(composite_literal type: (_) @bind.new) (unary_expression operand: (composite_literal type: (_) @bind.new)) (call_expression function: [(identifier) (selector_expression field: (field_identifier))] @bind.new)]))',
    '(short_var_declaration left: (expression_list . (identifier) @bind.name) right: (expression_list . (type_assertion_expression type: (_) @bind.type)))',
    '(range_clause left: (expression_list (identifier) @bind.name))',
    '(field_declaration name: (field_identifier) @bind.name type: (_) @bind.type)',
    '(type_spec name: (type_identifier) @base.of type: (struct_type (field_declaration_list (field_declaration !name type: (_) @base))))',
    '(type_spec name: (type_identifier) @base.of type: (interface_type (type_elem (_) @base)))',
  ],
  java: [
    '(formal_parameter type: (_) @bind.type name: (identifier) @bind.name)',
    '(spread_parameter (_) @bind.type (variable_declarator name: (identifier) @bind.name))',
    '(catch_formal_parameter name: (identifier) @bind.name)',
    '(local_variable_declaration type: (_) @bind.type declarator: (variable_declarator name: (identifier) @bind.name))',
    '(local_variable_declaration declarator: (variable_declarator name: (identifier) @bind.name value: (object_creation_expression type: (_) @bind.new)))',
    '(field_declaration type: (_) @bind.type declarator: (variable_declarator name: (identifier) @bind.name))',
    '(enhanced_for_statement type: (_) @bind.type name: (identifier) @bind.name)',
    '(lambda_expression parameters: (identifier) @bind.name)',
    '(inferred_parameters (identifier) @bind.name)',
    '(class_declaration name: (identifier) @base.of superclass: (superclass (_) @base))',
    '(class_declaration name: (identifier) @base.of interfaces: (super_interfaces (type_list (_) @base)))',
    '(enum_declaration name: (identifier) @base.of interfaces: (super_interfaces (type_list (_) @base)))',
    '(record_declaration name: (identifier) @base.of interfaces: (super_interfaces (type_list (_) @base)))',
    '(interface_declaration name: (identifier) @base.of (extends_interfaces (type_list (_) @base)))',
  ],
};
