"""Drives an Ironic-compatible endpoint with Debian's openstacksdk and prints what it observed as JSON.

Usage: /usr/bin/python3 sdk_checks.py URL NAME MAC
The last line of stdout is one JSON document; the TypeScript test asserts on it.
"""
import json
import sys

from sdk_report import connect, recorder


def main():
    url, name, mac = sys.argv[1], sys.argv[2], sys.argv[3]
    conn = connect(url)
    bm = conn.baremetal
    out = {'states': [], 'errors': {}}
    err = recorder(out)

    # openstacksdk moves a new node to `available` itself (manage, then provide, waiting for each).
    auto = bm.create_node(driver='fake-hardware', name=name + '-auto')
    out['auto_created'] = auto.provision_state
    # Ironic 21.4 deletes `available` nodes ([conductor]allow_deleting_available_nodes defaults to True).
    err('delete_available', lambda: bm.delete_node(auto))
    if bm.find_node(auto.id) is not None:
        bm.set_node_provision_state(auto, 'manage', wait=True, timeout=120)
        bm.delete_node(auto)

    node = bm.create_node(driver='fake-hardware', name=name, provision_state='enroll')
    out['created'] = {'name': node.name, 'driver': node.driver, 'provision_state': node.provision_state}
    out['found_by_name'] = bm.find_node(name).id == node.id
    out['got_by_name'] = bm.get_node(name).id == node.id

    err('not_found', lambda: bm.get_node('no-such-node-' + name))
    err('deploy_from_enroll', lambda: bm.set_node_provision_state(node, 'active'))
    err('duplicate_name', lambda: bm.create_node(driver='fake-hardware', name=name))

    for target, expected in (('manage', 'manageable'), ('inspect', 'manageable'),
                             ('provide', 'available')):
        n = bm.set_node_provision_state(node, target, wait=True, timeout=120)
        out['states'].append([target, n.provision_state])

    port = bm.create_port(node_uuid=node.id, address=mac)
    out['port'] = {'address': port.address, 'node_id': port.node_id}
    out['ports_of_node'] = [p.address for p in bm.ports(node=node.id)]
    out['port_by_address'] = [p.id for p in bm.ports(address=mac)] == [port.id]
    err('duplicate_mac', lambda: bm.create_port(node_uuid=node.id, address=mac))

    patched = bm.patch_node(node, [{'op': 'add', 'path': '/extra/team', 'value': 'blue'},
                                   {'op': 'add', 'path': '/properties/cpus', 'value': 8}])
    out['patched'] = {'extra': patched.extra, 'properties': patched.properties}

    n = bm.set_node_provision_state(node, 'active', wait=True, timeout=120)
    out['states'].append(['active', n.provision_state])
    bm.set_node_power_state(node, 'power off', wait=True, timeout=60)
    out['power_off'] = bm.get_node(node.id).power_state
    bm.set_node_power_state(node, 'power on', wait=True, timeout=60)
    out['power_on'] = bm.get_node(node.id).power_state

    err('delete_active', lambda: bm.delete_node(node))

    n = bm.set_node_provision_state(node, 'deleted', wait=True, timeout=120)
    out['states'].append(['deleted', n.provision_state])
    n = bm.set_node_provision_state(node, 'manage', wait=True, timeout=120)
    out['states'].append(['manage', n.provision_state])
    bm.delete_port(port)
    bm.delete_node(node)
    out['gone'] = bm.find_node(node.id) is None
    print(json.dumps(out))


if __name__ == '__main__':
    main()
