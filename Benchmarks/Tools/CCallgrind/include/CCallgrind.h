#pragma once
/// Starts counting instructions under callgrind (zeroing what came before); a no-op elsewhere.
void cg_start(void);
/// Stops counting instructions under callgrind; a no-op elsewhere.
void cg_stop(void);
