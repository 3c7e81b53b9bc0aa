#!/usr/bin/env node
// The command's entry: signals are answered from the first moment, then the CLI loads.
import { installEarlyInterrupt } from './run/earlyInterrupt.js';

installEarlyInterrupt();
await import('./cliMain.js');
