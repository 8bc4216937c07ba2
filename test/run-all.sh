#!/bin/sh
# `npm test`: typecheck first (fast, and nothing else is worth running on code that does not
# compile), then lint beside jest (ESLint's type-aware rules take most of a minute of one core);
# it fails when either does. Arguments go to jest (`npm test -- suppliers`).
npm run typecheck || exit
npm run lint &
lint=$!
NODE_OPTIONS=--experimental-vm-modules AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED=true jest "$@"
tests=$?
wait $lint && exit $tests
