export { startDemoIdp, type DemoIdp, type DemoIdpOptions } from './demo-idp';
export { DEMO_ACCOUNTS, LEVELS, type DemoAccount } from './accounts';
export { API_RESOURCE, DEMO_CLIENT_ID, DOCS_CLIENT_ID } from './provider-config';
