import * as catalogi from '../catalogi/catalogi.handlers';
import * as documenten from '../documenten/documenten.handlers';
import * as rollen from '../zaken/rollen.handlers';
import * as statussen from '../zaken/statussen.handlers';
import * as zios from '../zaken/zaakinformatieobjecten.handlers';
import * as zaken from '../zaken/zaken.handlers';
import type { OperationHandler } from './operation';

/** The operations the simulator serves, by the documents' operationId; any other answers 501. */
export const HANDLERS: Record<string, OperationHandler> = {
  zaak_create: zaken.createZaak,
  zaak_list: zaken.listZaken,
  zaak_read: zaken.readZaak,
  zaak_delete: zaken.deleteZaak,
  status_create: statussen.createStatus,
  status_list: statussen.listStatussen,
  status_read: statussen.readStatus,
  rol_create: rollen.createRol,
  rol_list: rollen.listRollen,
  rol_read: rollen.readRol,
  zaakinformatieobject_create: zios.createZaakInformatieObject,
  zaakinformatieobject_list: zios.listZaakInformatieObjecten,
  zaakinformatieobject_read: zios.readZaakInformatieObject,
  enkelvoudiginformatieobject_create: documenten.createDocument,
  enkelvoudiginformatieobject_list: documenten.listDocuments,
  enkelvoudiginformatieobject_read: documenten.readDocument,
  enkelvoudiginformatieobject_download: documenten.downloadDocument,
  objectinformatieobject_list: documenten.listObjectInformatieObjecten,
  catalogus_list: catalogi.listCatalogussen,
  catalogus_read: catalogi.readCatalogus,
  zaaktype_list: catalogi.listZaaktypen,
  zaaktype_read: catalogi.readZaaktype,
  statustype_list: catalogi.listStatustypen,
  statustype_read: catalogi.readStatustype,
  roltype_list: catalogi.listRoltypen,
  roltype_read: catalogi.readRoltype,
  informatieobjecttype_list: catalogi.listInformatieobjecttypen,
  informatieobjecttype_read: catalogi.readInformatieobjecttype,
};
