#!/bin/sh
# `npm test`: typecheck first (fast, and nothing else is worth running on code that does not
# compile), then lint beside jest (ESLint's type-aware rules take a minute of one core and 2 GB),
# at the lowest priority: jest's first tests start npm start, the CLIs and the synth, whose own
# timeouts do not allow for a core taken by the lint. It fails when either does. Arguments go to
# jest (`npm test -- suppliers`).
npm run typecheck || exit
nice -n 19 npm run lint &
lint=$!
NODE_OPTIONS=--experimental-vm-modules AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true jest "$@"
tests=$?
wait $lint && exit $tests
