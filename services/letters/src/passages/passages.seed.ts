import type { SectionKey } from '../content/sections';
import type { Besluit, LibraryPassage } from './passages.schemas';
import { richText } from './rich-text';

type Seed = Omit<LibraryPassage, 'version'>;

interface Tags {
  beroep?: string;
  isDefault?: boolean;
  besluit?: Besluit;
  reason?: string;
}

function passage(
  passageId: string,
  sectionKey: SectionKey,
  label: string,
  paragraphs: string[],
  tags: Tags = {},
): Seed {
  return {
    passageId,
    scope: tags.beroep ? 'beroep' : 'algemeen',
    sectionKey,
    label,
    content: richText(...paragraphs),
    beroep: tags.beroep ?? null,
    isDefault: tags.isDefault ?? false,
    besluit: tags.besluit ?? null,
    reason: tags.reason ?? null,
  };
}

/**
 * The standard passages shipped with the service (ADR 0010): every section, every besluit, reasons for
 * the negative ones, general and per beroep. A changed text here becomes the next version at the next start.
 */
export const PASSAGES_SEED: readonly Seed[] = [
  passage(
    'kenmerk-standaard',
    'kenmerk',
    'Kenmerk, datum en onderwerp',
    ['Ons kenmerk: {aanvraag.referentie}\nDatum: {datum.vandaag}\nOnderwerp: besluit op uw aanvraag'],
    { isDefault: true },
  ),

  passage('aanhef-formeel', 'aanhef', 'Formele aanhef', ['Geachte {zorgverlener.naam},'], { isDefault: true }),
  passage('aanhef-heer-mevrouw', 'aanhef', 'Aanhef heer/mevrouw', ['Geachte heer, mevrouw {zorgverlener.naam},']),

  passage(
    'kern-toekennen',
    'kern',
    'Aanleiding bij toekenning',
    [
      'U heeft bij ons een aanvraag ingediend voor inschrijving in het register ' +
        'als {beroep.naam}. Uw aanvraag heeft het kenmerk {aanvraag.referentie}.',
      'Wij hebben uw aanvraag en de documenten die u heeft meegestuurd beoordeeld. In deze brief leest u ons besluit.',
    ],
    { isDefault: true, besluit: 'toekennen' },
  ),
  passage(
    'kern-afwijzen',
    'kern',
    'Aanleiding bij afwijzing',
    [
      'U heeft bij ons een aanvraag ingediend voor inschrijving in het register ' +
        'als {beroep.naam}. Uw aanvraag heeft het kenmerk {aanvraag.referentie}.',
      'Wij hebben uw aanvraag zorgvuldig beoordeeld. Uw aanvraag voldoet ' +
        'niet aan de eisen van de wet. Hieronder leggen wij uit waarom.',
    ],
    { isDefault: true, besluit: 'afwijzen' },
  ),
  passage(
    'kern-buiten-behandeling',
    'kern',
    'Aanleiding bij buiten behandeling laten',
    [
      'U heeft bij ons een aanvraag ingediend voor inschrijving in het register ' +
        'als {beroep.naam}. Uw aanvraag heeft het kenmerk {aanvraag.referentie}.',
      'Uw aanvraag was niet volledig. Wij hebben u gevraagd de ontbrekende ' +
        'gegevens aan te vullen, maar wij hebben deze niet op tijd ontvangen.',
    ],
    { isDefault: true, besluit: 'buiten-behandeling' },
  ),
  passage('kern-algemeen', 'kern', 'Aanleiding (algemeen)', [
    'Wij hebben uw aanvraag met kenmerk {aanvraag.referentie} ontvangen en beoordeeld.',
  ]),
  passage(
    'kern-herregistratie-arts',
    'kern',
    'Herregistratie arts: werkervaring',
    [
      'Voor herregistratie als arts moet u aantonen dat u in de afgelopen vijf jaar ' +
        'ten minste 2080 uur als arts heeft gewerkt. Daarnaast geldt een scholingseis.',
    ],
    { beroep: 'arts', besluit: 'toekennen' },
  ),
  passage(
    'kern-specialisme-arts',
    'kern',
    'Arts: specialistenregister',
    [
      'Uw inschrijving als specialist staat los van uw inschrijving als arts. ' +
        'Voor een specialistenregistratie dient u een aparte ' +
        'aanvraag in bij de registratiecommissie van uw specialisme.',
    ],
    { beroep: 'arts' },
  ),
  passage(
    'kern-verpleegkundige',
    'kern',
    'Verpleegkundige: deskundigheidsgebieden',
    [
      'Als verpleegkundige bent u bevoegd tot het verrichten van voorbehouden handelingen, ' +
        'mits u daartoe bekwaam bent en in opdracht handelt.',
    ],
    { beroep: 'verpleegkundige' },
  ),
  passage(
    'kern-fysiotherapeut-herregistratie',
    'kern',
    'Fysiotherapeut: herregistratie',
    [
      'Voor herregistratie als fysiotherapeut telt ook werkervaring in het onderwijs ' +
        'en onderzoek mee, mits deze direct verband houdt met de fysiotherapie.',
    ],
    { beroep: 'fysiotherapeut' },
  ),

  passage(
    'besluit-toekennen',
    'besluit',
    'Besluit: toekennen',
    [
      'Wij kennen uw aanvraag toe. U staat met ingang van {besluit.datum} ingeschreven in ' +
        'het register als **{beroep.naam}** onder registernummer {zorgverlener.registerNummer}.',
    ],
    { isDefault: true, besluit: 'toekennen' },
  ),
  passage('besluit-afwijzen', 'besluit', 'Besluit: afwijzen', ['Wij wijzen uw aanvraag af.', '{besluit.toelichting}'], {
    isDefault: true,
    besluit: 'afwijzen',
  }),
  passage(
    'besluit-buiten-behandeling',
    'besluit',
    'Besluit: buiten behandeling',
    [
      'Wij nemen uw aanvraag niet in behandeling (artikel 4:5 van de Algemene wet bestuursrecht).',
      '{besluit.toelichting}',
    ],
    { isDefault: true, besluit: 'buiten-behandeling' },
  ),
  passage(
    'besluit-toekennen-arts',
    'besluit',
    'Besluit: toekennen arts (titel)',
    [
      'Vanaf de datum van inschrijving mag u de wettelijk beschermde titel **arts** ' +
        'voeren en bent u bevoegd de voorbehouden handelingen van de arts te verrichten.',
    ],
    { beroep: 'arts', besluit: 'toekennen' },
  ),
  passage(
    'besluit-toekennen-tandarts',
    'besluit',
    'Besluit: toekennen tandarts (titel)',
    ['Vanaf de datum van inschrijving mag u de wettelijk beschermde titel **tandarts** voeren.'],
    { beroep: 'tandarts', besluit: 'toekennen' },
  ),
  passage(
    'reden-onvoldoende-werkervaring',
    'besluit',
    'Reden: onvoldoende werkervaring',
    [
      'U heeft niet aangetoond dat u in de afgelopen vijf jaar ten minste 2080 uur als {beroep.naam} ' +
        'heeft gewerkt. De werkgeversverklaring die u heeft meegestuurd vermeldt minder uren.',
    ],
    { besluit: 'afwijzen', reason: 'onvoldoende-werkervaring' },
  ),
  passage(
    'reden-taalvaardigheid',
    'besluit',
    'Reden: taalvaardigheid niet aangetoond',
    [
      'U heeft niet aangetoond dat u de Nederlandse taal voldoende beheerst. ' +
        'Wij vragen ten minste niveau B2 van het Europees Referentiekader, ' +
        'aangetoond met een erkend certificaat.',
    ],
    { besluit: 'afwijzen', reason: 'taalvaardigheid-niet-aangetoond' },
  ),
  passage(
    'reden-diploma-niet-erkend',
    'besluit',
    'Reden: diploma niet erkend',
    [
      'Het diploma dat u heeft overgelegd geeft in Nederland geen toegang tot het beroep van ' +
        '{beroep.naam}. U kunt een verzoek om erkenning van uw buitenlandse diploma indienen.',
    ],
    { besluit: 'afwijzen', reason: 'diploma-niet-erkend' },
  ),
  passage(
    'reden-onvolledige-aanvraag',
    'besluit',
    'Reden: aanvraag niet aangevuld',
    [
      'Wij hebben u gevraagd uw aanvraag binnen {termijn.weken} weken aan te vullen met de ' +
        'ontbrekende documenten. Wij hebben deze documenten niet binnen die termijn ontvangen.',
    ],
    { besluit: 'buiten-behandeling', reason: 'aanvraag-niet-aangevuld' },
  ),
  passage(
    'reden-geen-reactie',
    'besluit',
    'Reden: geen reactie op verzoek om informatie',
    [
      'Wij hebben geen reactie ontvangen op ons verzoek om aanvullende informatie. ' +
        'Zonder deze informatie kunnen wij uw aanvraag niet beoordelen.',
    ],
    { besluit: 'buiten-behandeling', reason: 'geen-reactie' },
  ),
  passage(
    'besluit-nieuwe-aanvraag',
    'besluit',
    'Nieuwe aanvraag mogelijk',
    ['U kunt een nieuwe aanvraag indienen zodra u aan de eisen voldoet. Stuur dan alle documenten in één keer mee.'],
    { besluit: 'afwijzen' },
  ),

  passage(
    'bezwaar-standaard',
    'bezwaar',
    'Bezwaarclausule',
    [
      'Bent u het niet eens met dit besluit? Dan kunt u binnen zes weken na de datum van deze brief bezwaar ' +
        'maken. Stuur uw bezwaarschrift naar het postadres bovenaan deze brief. Vermeld in uw bezwaarschrift:',
      '- uw naam en adres;',
      '- de datum;',
      '- het kenmerk van deze brief;',
      '- waarom u het niet eens bent met het besluit;',
      '- uw handtekening.',
    ],
    { isDefault: true },
  ),

  passage(
    'afsluiting-vragen',
    'afsluiting',
    'Afsluiting met contactgegevens',
    [
      'Heeft u vragen over deze brief? Neem dan contact met ons op via de ' +
        'gegevens onderaan deze brief. Houd het kenmerk van deze brief bij de hand.',
    ],
    { isDefault: true },
  ),
  passage(
    'afsluiting-openbaar-register',
    'afsluiting',
    'Openbaar register',
    [
      'Uw inschrijving is vanaf vandaag te zien in het openbare register. ' +
        'Controleer of uw gegevens kloppen en geef wijzigingen aan ons door.',
    ],
    { besluit: 'toekennen' },
  ),
  passage(
    'afsluiting-nascholing-arts',
    'afsluiting',
    'Arts: blijven scholen',
    [
      'Wij wijzen u erop dat u voor uw volgende herregistratie opnieuw werkervaring ' +
        'en scholing moet aantonen. Houd uw _scholingspunten_ daarom goed bij.',
    ],
    { beroep: 'arts' },
  ),
];
