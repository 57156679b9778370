import { badInput } from '../errors';
import { builder } from './builder';

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

builder.scalarType('DateTime', {
  description:
    'RFC 3339 date-time string, exactly as the upstream sent it (for example 2025-09-04T10:11:22Z).',
  serialize: (value) => String(value),
  parseValue: (value) => {
    if (typeof value !== 'string' || !RFC3339.test(value))
      throw badInput('DateTime must be an RFC 3339 string.');
    return value;
  },
});
