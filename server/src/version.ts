/** The package version, read once from this package's package.json. */
export { VERSION } from './package-root.js';
