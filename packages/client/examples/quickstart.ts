import { BillingBlockedError, createCloudClient } from '@cloud-api/client';

const { CLOUD_API_TOKEN = '', CLOUD_API_DEV_URL, CLOUD_API_PROD_URL } = process.env;
const environments = { development: CLOUD_API_DEV_URL, production: CLOUD_API_PROD_URL }; // …/v1
const cloud = createCloudClient({ token: CLOUD_API_TOKEN, workspaceId: '1042', environments });
try {
  const op = await cloud.createCloudVm({ name: 'web-01', plan_id: 'plan-std-2c-4g', cpu: 2, ram_mb: 4096 });
  console.log('VM', op.vm_id, 'accepted as operation', op.operation_id);
} catch (error) {
  if (!(error instanceof BillingBlockedError)) throw error;
  console.error(`Not created (billing ${error.reason}): ${error.message}`);
}
