// voxnav is ES modules only; this is what require('voxnav') loads, to say so.
throw new Error(
  "voxnav is an ES module package: use `import { init, World } from 'voxnav'`, or from CommonJS " +
  "`const voxnav = await import('voxnav')` (require() cannot load it)");
