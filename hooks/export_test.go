package hooks

// SettingsLimit is settingsLimit for the external tests (hooks_test).
const SettingsLimit = settingsLimit
