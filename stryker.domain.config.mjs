// One run of `npm run mutation:domain` (OE_MUTATION_FOLDERS: folders of src/core/domain/, comma-separated); see stryker.config.mjs.
import { domainConfig } from './stryker.config.mjs';

export default domainConfig((process.env.OE_MUTATION_FOLDERS ?? '').split(',').filter((folder) => folder !== ''));
