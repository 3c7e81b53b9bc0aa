// Custom assertion functions for the house rules in ../redocly.yaml. Built-in assertions can
// check a property's presence or shape, but not "this parameter list contains a parameter with
// this name", which two house rules need.

/** Resolves a `$ref` entry of a parameter list through the linter's context. */
function resolveParameter(entry, ctx) {
  if (entry && typeof entry === 'object' && typeof entry.$ref === 'string') {
    const resolved = ctx.resolve(entry);
    return resolved?.node;
  }
  return entry;
}

export default function houseAssertions() {
  return {
    id: 'house',
    assertions: {
      /**
       * Asserts that a parameter list includes a parameter named `options.name` in
       * `options.in`, and, when `options.required` is true, that it is required.
       */
      includesParameter: (value, options, ctx) => {
        const list = Array.isArray(value) ? value : [];
        const found = list
          .map((entry) => resolveParameter(entry, ctx))
          .find((p) => p && p.name === options.name && p.in === options.in);
        if (!found) {
          return [
            {
              message: `must take the ${options.in} parameter \`${options.name}\``,
              location: ctx.baseLocation,
            },
          ];
        }
        if (options.required && found.required !== true) {
          return [
            {
              message: `the ${options.in} parameter \`${options.name}\` must be required`,
              location: ctx.baseLocation,
            },
          ];
        }
        return [];
      },
    },
  };
}
