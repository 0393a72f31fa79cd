{
  "targets": [
    {
      "target_name": "memory_release",
      "sources": ["src/memory_release.c"]
    }
  ]
}
