"""openstacksdk against an Ingot with api.auth_strategy=http_basic, its credentials from the environment
(OS_AUTH_TYPE=http_basic, OS_ENDPOINT, OS_USERNAME, OS_PASSWORD): lists the nodes, then creates one
named argv[2] and powers it on. Prints what it saw, or the error of the first call that failed. As with
auth_type none (sdk_report.py), the baremetal endpoint is given as an override so that the SDK
discovers the API version under it (the bare OS_ENDPOINT is taken as the versioned root)."""
import json
import sys

import openstack
from openstack import exceptions


def main():
    name = sys.argv[2]
    out = {'nodes': None, 'created': None, 'error': None}
    try:
        conn = openstack.connect(baremetal_endpoint_override=sys.argv[1], baremetal_status_code_retries=0)
        out['nodes'] = sorted(n.name for n in conn.baremetal.nodes())
        node = conn.baremetal.create_node(driver='fake-hardware', name=name)
        out['created'] = node.name
        conn.baremetal.set_node_power_state(node, 'power on', wait=True, timeout=30)
    except exceptions.SDKException as e:
        out['error'] = {'type': type(e).__name__, 'status': getattr(e, 'status_code', None), 'message': str(e)}
    print(json.dumps(out))


main()
