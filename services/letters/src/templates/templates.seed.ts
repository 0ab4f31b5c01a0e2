import type { TemplateContent } from './templates.schemas';

/** ADR 0010: the shipped sub-organisations; a start adds a missing one (version 1) and never overwrites. */
export const TEMPLATES_SEED: ReadonlyArray<{ subOrgId: string; content: TemplateContent }> = [
  {
    subOrgId: 'register',
    content: {
      orgName: 'Register van Zorgprofessionals',
      returnAddress: 'Postbus 90001, 2509 LR Den Haag',
      logoDocumentId: null,
      footerContact:
        'Bezoekadres Rijnstraat 50, 2515 XP Den Haag · Telefoon 070 ' +
        '340 79 11 (werkdagen 9.00–17.00 uur) · www.register.example.nl',
      footerLegal:
        'Het Register van Zorgprofessionals is onderdeel van het ministerie van Volksgezondheid, Welzijn en Sport.',
      signatureName: 'drs. M. de Boer',
      signatureRole: 'Hoofd Registratie',
      signatureClosing: 'Met vriendelijke groet,',
      margins: { topMm: 25, rightMm: 20, bottomMm: 25, leftMm: 25 },
    },
  },
  {
    subOrgId: 'register-buitenland',
    content: {
      orgName: 'Register van Zorgprofessionals – Buitenlandse diploma’s',
      returnAddress: 'Postbus 90002, 2509 LS Den Haag',
      logoDocumentId: null,
      footerContact: 'Telefoon +31 70 340 79 12 (werkdagen 9.00–13.00 uur) · buitenland@register.example.nl',
      footerLegal: 'Erkenning van beroepskwalificaties volgens Richtlijn 2005/36/EG.',
      signatureName: 'mr. A. Yilmaz',
      signatureRole: 'Teamleider Erkenningen',
      signatureClosing: 'Hoogachtend,',
      margins: { topMm: 30, rightMm: 20, bottomMm: 25, leftMm: 25 },
    },
  },
];
