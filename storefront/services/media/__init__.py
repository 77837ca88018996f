"""Images and where files live: upload checks, local or S3 storage, placeholder pictures."""
