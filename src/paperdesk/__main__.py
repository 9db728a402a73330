from paperdesk.app import main

raise SystemExit(main())
