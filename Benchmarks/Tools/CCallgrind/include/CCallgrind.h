// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

#pragma once
/// Starts counting instructions under callgrind (zeroing what came before); a no-op elsewhere.
void cg_start(void);
/// Stops counting instructions under callgrind; a no-op elsewhere.
void cg_stop(void);
