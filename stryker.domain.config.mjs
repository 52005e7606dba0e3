// One group of `npm run mutation:domain` (OE_MUTATION_GROUP: an index into DOMAIN_GROUPS); see stryker.config.mjs.
import { domainConfig } from './stryker.config.mjs';

export default domainConfig(Number(process.env.OE_MUTATION_GROUP ?? 'NaN'));
