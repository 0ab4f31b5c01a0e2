import { needs, routeTable } from '../common';

export const routes = routeTable('audit', {
  auditLog: { method: 'GET', path: '/api/v1/admin/audit', requires: needs('audit:read') },
});
