import { BillingBlockedError, createCloudClient } from '@cloud-api/client';

const cloud = createCloudClient({ token: process.env.CLOUD_API_TOKEN ?? '', workspaceId: '1042' });
const vm = { name: 'web-01', plan_id: 'plan-std-2c-4g', cpu: 2, ram_mb: 4096 };
try {
  const accepted = await cloud.createCloudVm(vm);
  const poll = { path: '/operations/{operation_id}', deadlineMs: 600_000 };
  console.log('VM', accepted.vm_id, 'finished:', await cloud.waitForOperation(accepted.operation_id, poll));
} catch (error) {
  if (!(error instanceof BillingBlockedError)) throw error;
  console.error(`Not created (billing ${error.reason}): ${error.message}`);
}
