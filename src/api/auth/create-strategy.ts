/** The strategy `api.auth_strategy` names, built once per process and shared by the REST and inspector APIs. */
import type { ApiConfig } from '../../config/api.js';
import { fail } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { httpBasicStrategy } from './http-basic.js';
import { NOAUTH, type AuthStrategy } from './strategy.js';

/** Throws ConfigInvalid when the strategy cannot start (an unreadable or malformed htpasswd file, `keystone`). */
export function createAuthStrategy(config: Pick<ApiConfig, 'auth_strategy' | 'http_basic_auth_user_file'>, logger: Logger): AuthStrategy {
  switch (config.auth_strategy) {
    case 'noauth':
      return NOAUTH;
    case 'http_basic':
      return httpBasicStrategy({ path: config.http_basic_auth_user_file, logger });
    case 'keystone':
      throw fail('authKeystoneNotImplemented');
  }
}
