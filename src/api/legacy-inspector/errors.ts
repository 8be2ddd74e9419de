/**
 * The legacy ironic-inspector error envelope: `{"error": {"message": "..."}}` with the HTTP status
 * (`ironic_inspector/main.py` `error_response`).
 */

/** The inspector's error body for `message`. */
export function inspectorErrorBody(message: string): { error: { message: string } } {
  return { error: { message } };
}
