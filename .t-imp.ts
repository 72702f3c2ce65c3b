import './src/storage/database.ts'
