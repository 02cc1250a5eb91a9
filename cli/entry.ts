// Process entry of the CLI: runs `main` and sets the exit code (bin/perfpipe.js loads the compiled copy).
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2));
