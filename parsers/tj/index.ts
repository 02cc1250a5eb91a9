// Public entry of the TJ parser.
export { createTjFrameDecoder, createTjParser, toJsonEvent, type TjFileContext, type TjFrameDecoder } from './tj-parser.js';
export { hourFromFileName, isValidHour, isValidTimeZone } from './event-time.js';
export { type TjProperties, type TjProps, firstValue, propsObject } from './properties.js';
