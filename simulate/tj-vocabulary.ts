// The words a simulated 1C-on-PostgreSQL load test uses: infobases, users, call contexts, lock spaces, SQL texts.
// Shapes follow the real lines quoted in docs/tj-format.md §3–§5; names are invented.

export const INFOBASES = ['erp_load', 'zup_load'] as const;

/** Cyrillic names as real bases have them, one with a comma (forces quoting of `Usr`), and the no-users default. */
export const USERS = [
  'Иванов Иван Иванович',
  'Петрова А.С.',
  'Кладовщик_03',
  'Нагрузка01',
  'Сидоров, бухгалтер',
  'Администратор',
  'loadtest',
  'DefUser',
] as const;

export const APPLICATIONS = ['1CV8C', '1CV8C', '1CV8C', 'WebClient', 'BackgroundJob', 'COMConnection'] as const;

export const COMPUTERS = ['LT-AGENT-01', 'LT-AGENT-02', 'LT-AGENT-03', 'app-1c-01', 'ws-буховская'] as const;

/** A user operation: the one-line CALL context plus the modules its inner events run in. */
export interface Operation {
  /** `Форма.Записать : …` — the first line of the call context, written unquoted on CALL. */
  call: string;
  /** Call-stack lines below the first; depth grows with each line (tab-indented in the TJ). */
  stack: readonly string[];
  /** Lock spaces the operation locks: `<table>.<space>` with the field it locks by. */
  locks: readonly { space: string; field: string; kind: 'ref' | 'string' | 'number' | 'date' }[];
  /** Tables its SQL touches (`_Reference28054` for lock space `Reference28054`). */
  tables: readonly string[];
}

export const OPERATIONS: readonly Operation[] = [
  {
    call: 'Форма.Записать : Документ.РеализацияТоваровУслуг.ФормаОбъекта',
    stack: [
      'Документ.РеализацияТоваровУслуг.МодульОбъекта : 1076 : УчетНДС.СформироватьДвиженияОтгрузка(ЭтотОбъект, Движения);',
      'ОбщийМодуль.УчетНДС.Модуль : 748 : СформироватьДвиженияРеализацияТоваровУслуг(Параметры, Реквизиты, Движения);',
      'ОбщийМодуль.БухгалтерскийУчет.Модуль : 9267 : Блокировка.Заблокировать();',
    ],
    locks: [
      { space: 'Reference28054.REFLOCK', field: 'ID', kind: 'ref' },
      { space: 'AccumRg31253.DIMS', field: 'Fld31254', kind: 'ref' },
      { space: 'InfoRg20642.DIMS', field: 'Fld20643', kind: 'string' },
    ],
    tables: ['_Reference28054', '_AccumRg31253', '_InfoRg20642'],
  },
  {
    call: 'Форма.Вызов : Обработка.ЗакрытиеМесяца.Форма.Форма.Модуль.ВыполнитьНаСервере',
    stack: [
      'Обработка.ЗакрытиеМесяца.Форма.Форма.Форма : 212 : РезультатЗапроса = Запрос.Выполнить();',
      'ОбщийМодуль.ЗакрытиеМесяцаСервер.Модуль : 88 : НаборЗаписей.Записать();',
    ],
    locks: [
      { space: 'AccumRg31253.DIMS', field: 'Period', kind: 'date' },
      { space: 'Document30456.REFLOCK', field: 'ID', kind: 'ref' },
    ],
    tables: ['_AccumRg31253', '_Document30456'],
  },
  {
    call: 'Система.ПолучитьИзВременногоХранилища',
    stack: ['ОбщийМодуль.РаботаСФайлами.Модуль : 35 : ДанныеФайла = ПолучитьИзВременногоХранилища(Адрес);'],
    locks: [{ space: 'InfoRg20642.DIMS', field: 'Fld20644', kind: 'number' }],
    tables: ['_InfoRg20642'],
  },
  {
    call: 'ОбщийМодуль.ДлительныеОперации.Модуль.ВыполнитьПроцедуру',
    stack: [
      'ОбщийМодуль.ДлительныеОперации.Модуль : 1114 : ВызватьПроцедуру(ВсеПараметры.ИмяПроцедуры, ВсеПараметры.ПараметрыПроцедуры);',
      'ОбщийМодуль.ОбщегоНазначения.Модуль : 5261 : Выполнить ИмяМетода + "(" + ПараметрыСтрока + ")";',
      'Обработка.ГрупповоеПерепроведениеДокументов.МодульМенеджера : 116 : РезультатОбработки = ВыполнитьПерепроведение(Параметры);',
    ],
    locks: [
      { space: 'Document30456.REFLOCK', field: 'ID', kind: 'ref' },
      { space: 'UsersWorkHistory.HISTORYLOCK', field: 'UserID', kind: 'string' },
    ],
    tables: ['_Document30456', '_UsersWorkHistory'],
  },
];

export const INTERFACES = [
  { iface: 'bc15bd01-10bf-413c-a856-ddc907fcd123', name: 'IVResourceRemoteConnection', method: 'send' },
  { iface: '90b77326-8e4a-4195-b980-d758277d1f03', name: 'ISeanceContextStorage', method: 'attachSeanceIB' },
  { iface: '7931ae5c-5df1-463c-a53a-8e62bf74d068', name: 'IExtNotify', method: 'onFinishRpHost' },
] as const;

/** String values for `Fld…="…"` lock fields and `::mvarchar` parameters; one holds `"` to exercise doubling. */
export const STRING_VALUES = ['мтоКорректировкаГКПЗ', 'Основной склад', 'ООО "Ромашка"', 'Поставщик 17', 'НДС20'] as const;

export const EXCEPTION_SOURCES = ['src\\DataExchangeCommon.cpp(1129)', 'src\\VResourceInfoBaseImpl.cpp(1129)', 'src\\ManagedLocks.cpp(612)'] as const;
