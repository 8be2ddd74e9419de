"""Drives Ingot's ironic-inspector compatible listener with Debian's openstacksdk (baremetal_introspection)
and prints what it observed as JSON.

Usage: /usr/bin/python3 introspection_checks.py IRONIC_URL INSPECTOR_URL NAME INVENTORY_JSON_FILE BMC_ADDRESS
The last line of stdout is one JSON document; the TypeScript test asserts on it.
"""
import json
import sys
import time
import urllib.request

from sdk_report import connect, recorder


def main():
    url, inspector_url, name, inventory_file, bmc = sys.argv[1:6]
    conn = connect(url, baremetal_introspection_endpoint_override=inspector_url)
    bm = conn.baremetal
    insp = conn.baremetal_introspection
    out = {'errors': {}}
    err = recorder(out)

    def status(i):
        return {'id': i.id, 'state': i.state, 'is_finished': i.is_finished, 'error': i.error,
                'started_at': i.started_at, 'finished_at': i.finished_at}

    def poll(ident, done, timeout=60):
        deadline = time.monotonic() + timeout
        while True:
            i = insp.get_introspection(ident)
            if done(i) or time.monotonic() > deadline:
                return i
            time.sleep(0.2)

    # Out-of-band: a fake-hardware node finishes at once.
    fake = bm.create_node(driver='fake-hardware', name=name + '-fake', provision_state='enroll')
    bm.set_node_provision_state(fake, 'manage', wait=True, timeout=120)
    err('status_before', lambda: insp.get_introspection(fake.id))
    started = insp.start_introspection(fake.name)
    out['started_id'] = started.id
    out['fake_status'] = status(poll(fake.id, lambda i: i.is_finished))
    out['fake_waited'] = status(insp.wait_for_introspection(fake.id, timeout=60))
    err('fake_data', lambda: insp.get_introspection_data(fake.id))

    # In-band: an `agent` node waits for its ramdisk, whose data arrives on the legacy /v1/continue.
    agent = bm.create_node(driver='fake-hardware', name=name + '-agent', provision_state='enroll',
                           inspect_interface='agent', driver_info={'ipmi_address': bmc})
    bm.set_node_provision_state(agent, 'manage', wait=True, timeout=120)
    insp.start_introspection(agent)
    out['agent_waiting'] = status(poll(agent.id, lambda i: i.state == 'waiting'))
    with open(inventory_file) as f:
        inventory = json.load(f)
    req = urllib.request.Request(inspector_url + '/v1/continue', data=json.dumps({'inventory': inventory}).encode(),
                                 headers={'Content-Type': 'application/json'}, method='POST')
    with urllib.request.urlopen(req, timeout=30) as resp:
        out['continue'] = {'status': resp.status, 'body': json.loads(resp.read())}
    out['agent_status'] = status(insp.wait_for_introspection(agent.id, timeout=60))
    data = insp.get_introspection_data(agent.id)
    out['agent_data'] = {'keys': sorted(data.keys()), 'cpu_count': data['inventory']['cpu']['count'],
                         'interfaces': len(data['inventory']['interfaces'])}
    err('unprocessed', lambda: insp.get_introspection_data(agent.id, processed=False))

    # Abort: another agent node, waiting for a ramdisk that never comes.
    aborted = bm.create_node(driver='fake-hardware', name=name + '-abort', provision_state='enroll',
                             inspect_interface='agent', driver_info={'ipmi_address': bmc + '9'})
    bm.set_node_provision_state(aborted, 'manage', wait=True, timeout=120)
    insp.start_introspection(aborted)
    poll(aborted.id, lambda i: i.state == 'waiting')
    insp.abort_introspection(aborted.id)
    out['aborted_status'] = status(poll(aborted.id, lambda i: i.is_finished))
    err('aborted_wait', lambda: insp.wait_for_introspection(aborted.id, timeout=30))

    out['list'] = [i.id for i in insp.introspections()]
    out['list_limit'] = [i.id for i in insp.introspections(limit=1, paginated=False)]
    err('not_found', lambda: insp.get_introspection('no-such-node-' + name))
    out['ids'] = {'fake': fake.id, 'agent': agent.id, 'aborted': aborted.id}
    print(json.dumps(out))


if __name__ == '__main__':
    main()
