import { scratchTmpdir } from '@cloud-api/test-support';

export default scratchTmpdir('cloud-api-client-tests');
