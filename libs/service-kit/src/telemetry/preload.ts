// Required before anything else (the kit's index does it first; `node --require` may do it earlier): the SDK
// must be running before express and pg are loaded for its instrumentations to patch them.
import { startTracing } from './tracing';
import { installTraceContext } from './trace-context';

startTracing(process.env);
installTraceContext();
