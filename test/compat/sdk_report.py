"""What the compatibility scripts share: an openstacksdk connection to an Ironic-compatible endpoint
without Keystone, and a report that records each call's error, for the TypeScript test to assert on.
"""
import sys
import time

import openstack
from openstack import exceptions


def connect(url, **overrides):
    """A connection to `url` at microversion 1.82. openstacksdk retries 409 and 503 answers (for
    NodeLocked) for ~15 s by default; the checks want the first answer, so it does not retry."""
    return openstack.connection.Connection(
        auth_type='none',
        auth={'endpoint': url},
        baremetal_endpoint_override=url,
        baremetal_api_version='1.82',
        baremetal_status_code_retries=0,
        **overrides,
    )


def recorder(out):
    """err(key, fn): runs fn and records under out['errors'][key] None or the SDK error it raised
    (type, HTTP status, message); how long it took goes to stderr."""
    out.setdefault('errors', {})

    def err(key, fn):
        started = time.monotonic()
        try:
            fn()
            out['errors'][key] = None
        except exceptions.SDKException as e:
            out['errors'][key] = {
                'type': type(e).__name__,
                'status': getattr(e, 'status_code', None),
                'message': str(e),
            }
        sys.stderr.write('%s: %.1f s\n' % (key, time.monotonic() - started))

    return err
