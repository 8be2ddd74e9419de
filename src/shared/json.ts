/** JSON values as `JSON.parse` yields them: what every wire body and every free-form dict holds. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object (a free-form dict such as `extra` or `driver_info`). */
export type JsonObject = { [key: string]: Json };
