/**
 * The network boot services of `ingot serve`: the image cache, the DHCP provider, the TFTP server and the
 * HTTP boot server (each as configured; TFTP and HTTP are off by default), and the environment the `pxe`
 * and `ipxe` boot interfaces work in. Directories left empty in the config live in the data directory.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createDhcpProvider, pxeBootOptions, type DhcpProvider } from '../boot/dhcp/index.js';
import { createHttpBootServer, type HttpBootServer } from '../boot/http/index.js';
import { createTftpServer, tftpServerOptions, type TftpServer } from '../boot/tftp/index.js';
import type { IngotConfig } from '../config/ingot-config.js';
import type { NetworkBootEnvironment } from '../drivers/network-boot/environment.js';
import { cacheOptionsFromConfig, ImageCache } from '../images/index.js';
import type { Logger } from '../shared/logger.js';

export interface BootServices {
  environment: NetworkBootEnvironment;
  /** Bound ports of the servers that run. */
  tftpPort?: number;
  httpPort?: number;
  /** Fills in the API URL handed to agents when the config leaves it empty (known once the API listens). */
  setApiUrl(url: string): void;
  close(): Promise<void>;
}

/** Starts what `config` asks for. */
export async function startBootServices(config: IngotConfig, logger: Logger): Promise<BootServices> {
  const dataDir = config.database.data_dir;
  const tftpRoot = path.resolve(config.boot.tftp_root_dir || config.tftp.root_dir || path.join(dataDir, 'tftpboot'));
  const httpRoot = path.resolve(config.boot.http_root_dir || path.join(dataDir, 'httpboot'));
  await Promise.all([mkdir(tftpRoot, { recursive: true }), mkdir(httpRoot, { recursive: true })]);
  const resolved = { ...config.boot, tftp_root_dir: tftpRoot, http_root_dir: httpRoot };
  const stop = new AbortController();
  const opened: { close(): Promise<void> }[] = [];
  try {
    const images = await ImageCache.open(cacheOptionsFromConfig(config.images, dataDir));
    const dhcp: DhcpProvider = await createDhcpProvider(config.dhcp, { dataDir, logger, signal: stop.signal });
    opened.push(dhcp);
    let tftp: TftpServer | undefined;
    let tftpPort: number | undefined;
    if (config.tftp.enabled) {
      tftp = createTftpServer({ ...tftpServerOptions(config.tftp), root: tftpRoot, logger });
      tftpPort = (await tftp.start()).port;
      opened.push(tftp);
      logger.info({ port: tftpPort, root: tftpRoot }, 'TFTP server listening');
    }
    let http: HttpBootServer | undefined;
    let httpPort: number | undefined;
    if (config.boot.http_enabled) {
      http = createHttpBootServer({ host: config.boot.http_host, port: config.boot.http_port, root: httpRoot, logger, signal: stop.signal });
      httpPort = (await http.start()).port;
      opened.push(http);
      // Machines reach a server on a specific address at that address; a wildcard one needs http_url set.
      if (resolved.http_url === '' && !['0.0.0.0', '::'].includes(config.boot.http_host)) {
        const host = config.boot.http_host.includes(':') ? `[${config.boot.http_host}]` : config.boot.http_host;
        resolved.http_url = `http://${host}:${httpPort}`;
      }
      logger.info({ port: httpPort, root: httpRoot }, 'HTTP boot server listening');
    }
    const environment: NetworkBootEnvironment = {
      config: resolved,
      dhcp,
      dhcpOptions: (input) => pxeBootOptions(input),
      images,
    };
    return {
      environment,
      ...(tftpPort !== undefined ? { tftpPort } : {}),
      ...(httpPort !== undefined ? { httpPort } : {}),
      setApiUrl(url) {
        if (resolved.api_url === '') resolved.api_url = url;
      },
      async close() {
        stop.abort();
        await Promise.allSettled(opened.reverse().map((s) => s.close()));
      },
    };
  } catch (err) {
    stop.abort();
    await Promise.allSettled(opened.reverse().map((s) => s.close()));
    throw err;
  }
}
