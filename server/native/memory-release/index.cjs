// The compiled addon, or null when it was not built (see build.cjs).
let addon = null;
try {
  addon = require('./build/Release/memory_release.node');
} catch {
  addon = null;
}
module.exports = addon;
