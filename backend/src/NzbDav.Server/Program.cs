using NzbDav.Server.Hosting;

return await NzbDavProgram.RunAsync(args);
