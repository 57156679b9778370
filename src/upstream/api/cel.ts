// Pieces of the upstream's `filter` (a CEL subset) that every list shares. Every value a client gives
// is a quoted, escaped string literal, never spliced into the expression, so a value such as
// `" || true || "` is data that matches nothing.

/** A CEL string literal: JSON's escapes (\" \\ \n \uXXXX …) are CEL escapes too. */
export const celString = (value: string): string => JSON.stringify(value);

/** `obj.<field> in ["a", "b"]`: the field equals any of the values. */
export const anyOf = (field: string, values: readonly string[]): string =>
  `obj.${field} in [${values.map(celString).join(', ')}]`;

/** `obj.<field> == "value"` (a dotted field reads a Ref's id: `tunnel_session.id`). */
export const equals = (field: string, value: string): string => `obj.${field} == ${celString(value)}`;
