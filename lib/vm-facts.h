/*
 * The facts of a `regionbench vm` boot (vm.json): written by the host
 * beside the boot's results, read by the guest (meta.json's "guest"), by
 * analysis (a guest run's kernel report) and by ab.  Its name and its one
 * reader live here, below every folder that reads it (lib/vm-facts.c).
 */
#ifndef RB_VM_FACTS_H
#define RB_VM_FACTS_H

#include <jansson.h>

/* The facts of a boot, written by the host and read by the guest. */
#define VM_FACTS_FILE	"vm.json"
/* Environment variable naming the facts file inside the guest. */
#define VM_FACTS_ENV	"REGIONBENCH_VM_FACTS"
/* The guest kernel's log, which the guest init writes beside them. */
#define VM_DMESG_FILE	"vm-dmesg.log"

json_t	*vm_facts_read(const char *path);
json_t	*vm_facts_read_dir(const char *dir);
const char *vm_facts_string(json_t *facts, const char *path);

#endif
