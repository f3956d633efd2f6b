/*
 * Reading the facts of a `regionbench vm` boot (vm-facts.h): one reader
 * for the guest, analysis and ab.
 */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "input-file.h"
#include "log.h"
#include "vm-facts.h"

/* The facts at path: a JSON object, or NULL when absent or unreadable. */
json_t *
vm_facts_read(const char *path)
{
	json_t *facts;

	/* Bounded, never a FIFO or a link: a guest can write beside it. */
	if (path == NULL || *path == '\0' || (facts = input_json_object(path,
	    O_NOFOLLOW, INPUT_JSON_MAX, NULL)) == NULL)
		return (NULL);
	if (!json_is_object(facts)) {
		json_decref(facts);
		return (NULL);
	}
	return (facts);
}

/* The facts of the boot whose directory is dir (DIR/vm.json), or NULL. */
json_t *
vm_facts_read_dir(const char *dir)
{
	char *path;
	json_t *facts;

	path = xasprintf("%s/%s", dir, VM_FACTS_FILE);
	facts = vm_facts_read(path);
	free(path);
	return (facts);
}

/*
 * A string of the facts by dotted path ("guest.kernel.sha256"), or NULL.
 */
const char *
vm_facts_string(json_t *facts, const char *path)
{
	const char *dot;
	json_t *v = facts;
	char key[64];
	size_t len;

	while (v != NULL && path != NULL) {
		dot = strchr(path, '.');
		len = dot != NULL ? (size_t)(dot - path) : strlen(path);
		if (len >= sizeof key)
			return (NULL);
		memcpy(key, path, len);
		key[len] = '\0';
		v = json_object_get(v, key);
		path = dot != NULL ? dot + 1 : NULL;
	}
	return (json_string_value(v));
}
