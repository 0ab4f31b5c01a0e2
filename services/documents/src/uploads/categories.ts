import { DomainError } from '@register/problem';

/** ADR 0006: the one place that knows the wizards, their categories and when one is required. */
export interface CategoryConfig {
  categoryId: string;
  label: string;
  description: string;
  acceptedTypes: string[];
  maxSizeMb: number;
  multiple: boolean;
  allowPostDelivery: boolean;
  requiredWhen: (answers: WizardAnswers) => boolean;
}

export interface WizardAnswers {
  diplomaHerkomst?: 'digitaal' | 'handmatig' | undefined;
  taalvaardigheid?: 'ja' | 'nee' | undefined;
}

const PROOF = ['application/pdf', 'image/jpeg', 'image/png'];
const never = () => false;

const overig: CategoryConfig = {
  categoryId: 'overig',
  label: 'Overige documenten',
  description: 'Andere documenten die u bij uw aanvraag wilt voegen. U kunt meerdere bestanden uploaden.',
  acceptedTypes: PROOF,
  maxSizeMb: 25,
  multiple: true,
  allowPostDelivery: false,
  requiredWhen: never,
};

export const WIZARDS: Readonly<Record<string, readonly CategoryConfig[]>> = {
  intake: [
    {
      categoryId: 'diploma',
      label: 'Diploma',
      description:
        'Een kopie van uw diploma. Nodig als u uw diploma zelf heeft ingevoerd; ' +
        'een digitaal gecontroleerd diploma hoeft u niet te uploaden.',
      acceptedTypes: PROOF,
      maxSizeMb: 10,
      multiple: false,
      allowPostDelivery: true,
      requiredWhen: (a) => a.diplomaHerkomst === 'handmatig',
    },
    {
      categoryId: 'taalvaardigheid',
      label: 'Bewijs van taalvaardigheid',
      description: 'Een certificaat waaruit blijkt dat u de Nederlandse taal voldoende beheerst.',
      acceptedTypes: PROOF,
      maxSizeMb: 10,
      multiple: false,
      allowPostDelivery: true,
      // Nothing of intake is required before a diploma is chosen (ADR 0006).
      requiredWhen: (a) => a.diplomaHerkomst !== undefined && a.taalvaardigheid === 'ja',
    },
    overig,
  ],
  herregistratie: [
    {
      categoryId: 'werkervaring',
      label: 'Bewijs van werkervaring',
      description:
        'Een werkgeversverklaring of ander bewijs van de uren die u de afgelopen vijf jaar in uw beroep heeft gewerkt.',
      acceptedTypes: PROOF,
      maxSizeMb: 10,
      multiple: false,
      allowPostDelivery: true,
      requiredWhen: () => true,
    },
    {
      categoryId: 'scholing',
      label: 'Bewijs van scholing',
      description: 'Certificaten van gevolgde bij- en nascholing. U kunt meerdere bestanden uploaden.',
      acceptedTypes: PROOF,
      maxSizeMb: 10,
      multiple: true,
      allowPostDelivery: true,
      requiredWhen: never,
    },
    overig,
  ],
  orgtemplate: [
    {
      categoryId: 'organisatie-logo',
      label: 'Organisatielogo',
      description: 'Het logo dat bovenaan de brieven van uw organisatie staat. PNG of SVG, maximaal 1 MB.',
      acceptedTypes: ['image/png', 'image/svg+xml'],
      maxSizeMb: 1,
      multiple: false,
      allowPostDelivery: false,
      requiredWhen: never,
    },
  ],
};

export const ORGANISATIE_LOGO = 'organisatie-logo';
const MIB = 1024 * 1024;

/** The categories of a wizard with `required` computed from the answers (the DocumentCategory view). */
export function categoriesFor(wizardId: string, answers: WizardAnswers) {
  const wizard = WIZARDS[wizardId];
  if (!wizard)
    throw new DomainError('validation', 'Unknown wizard.', [
      { field: 'wizardId', code: 'unknown', detail: `Unknown wizard ${wizardId}.` },
    ]);
  return wizard.map(({ requiredWhen, ...category }) => ({
    ...category,
    acceptedTypes: [...category.acceptedTypes],
    required: requiredWhen(answers),
  }));
}

export type Category = Omit<CategoryConfig, 'requiredWhen'>;

/** Uploads validate against the maximal set of the wizard, so a category that turned optional still accepts. */
export function findCategory(wizardId: string, categoryId: string): Category | null {
  const category = WIZARDS[wizardId]?.find((c) => c.categoryId === categoryId);
  if (!category) return null;
  const { requiredWhen: _unused, ...rest } = category;
  return rest;
}

export function maxBytesOf(category: { maxSizeMb: number }): number {
  return category.maxSizeMb * MIB;
}

/** The largest file any category accepts: the parser's hard ceiling before the category is known. */
export const LARGEST_UPLOAD_BYTES = Math.max(...Object.values(WIZARDS).flat().map(maxBytesOf));
