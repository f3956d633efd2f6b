/*
 * libFuzzer harness: store_selector_parse, the "db:key=value,..." syntax
 * compare and gate take from their command lines, on any bytes.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz-util.h"
#include "store.h"

/* One input: the selection's text (cut at a NUL, as argv would be). */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct store_selector sel;
	char *text, *cause = NULL;

	text = malloc(size + 1);
	if (text == NULL)
		return (0);
	memcpy(text, data, size);
	text[size] = '\0';
	if (store_selector_parse(text, &sel, &cause) == 0)
		store_selector_free(&sel);
	free(cause);
	free(text);
	return (0);
}
