/** Capability names of ADR 0002; which identity holds which is decided by libs/authz alone. */
export const CAPABILITIES = [
  'CanBeoordelen',
  'applications:own',
  'audit:read',
  'brief:approve',
  'brief:edit',
  'brief:reveal-registernummer',
  'cases:admin',
  'flags:write',
  'orgtemplate:edit',
  'stamdata:read',
  'uploads:admin-delete',
] as const;
export type Capability = (typeof CAPABILITIES)[number];
