export { type RunNodeScriptOptions, runNodeScript, type ScriptRun } from './runNodeScript.js';
export { scratchTmpdir } from './scratchTmpdir.js';
