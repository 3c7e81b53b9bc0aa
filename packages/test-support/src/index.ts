export { type RunNodeScriptOptions, runNodeScript, type ScriptRun } from './runNodeScript.js';
