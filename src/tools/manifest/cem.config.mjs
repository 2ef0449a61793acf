// The Custom Elements Manifest analyzer's configuration, for `cem analyze --config` (see
// custom-elements-manifest.ts): the elements' sources with Lit's conventions, and no
// `customElements` field written into package.json (it is there already, and a build into
// another directory must not change it).
export default {
  globs: ['src/elements/**/*.ts'],
  exclude: ['src/elements/**/*.test.ts', 'src/elements/**/testing/**'],
  litelement: true,
  packagejson: false,
  quiet: true,
};
