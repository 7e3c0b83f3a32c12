/* Versions and the sentence of each status (the status texts are generated from spec/comun.toml). */
#include "internal.h"

const char *dt_version(void) { return DT_VERSION_STRING; }
uint32_t dt_version_number(void) { return DT_VERSION_MAJOR * 10000u + DT_VERSION_MINOR * 100u + DT_VERSION_PATCH; }
uint32_t dt_data_version(void) { return DT_DATA_VERSION; }

#include "nucleo/estados.gen.h"
