import { z } from 'zod';
import { anyIdentity, eventContract, needs, routeTable } from '../common';

export const routes = routeTable('reference', {
  flags: { method: 'GET', path: '/api/v1/flags', processing: 'none', requires: anyIdentity },
  setFlag: { method: 'PUT', path: '/api/v1/admin/flags/:key', processing: 'none', requires: needs('flags:write') },
  stamdataTables: { method: 'GET', path: '/api/v1/stamdata', processing: 'none', requires: needs('stamdata:read') },
  stamdataTable: {
    method: 'GET',
    path: '/api/v1/stamdata/:table',
    processing: 'none',
    requires: needs('stamdata:read'),
  },
});

export const events = {
  flagChanged: eventContract(
    'register.reference.flag-changed',
    'flag-changed',
    z.object({ key: z.string(), enabled: z.boolean() }),
  ),
};

/** The reference service's internal API (GET /internal/flags, GET /internal/stamdata/:table). */
export const internal = {
  flag: z.object({ key: z.string(), description: z.string().nullable(), enabled: z.boolean() }),
  stamdataTable: z.object({ id: z.string(), rows: z.array(z.record(z.string(), z.unknown())) }).loose(),
};
