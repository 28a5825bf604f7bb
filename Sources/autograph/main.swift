import AutographCLI

await AutographCLI.main()
